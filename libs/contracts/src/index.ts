export * from './commands';
export * from './errors';
export * from './events';
export * from './groupings';
export * from './internal-context';
export * from './request-log-note';
export * from './schemas';
