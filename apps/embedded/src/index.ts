export * from './embedded';
