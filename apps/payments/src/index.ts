export * from './config';
export * from './payments';
