export * from './config';
export * from './payments';
export { SecretBox } from './processor-connections/secret-box';
