export * from './config';
export * from './webhooks';
