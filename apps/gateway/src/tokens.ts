export const UPSTREAM = Symbol('UPSTREAM');
