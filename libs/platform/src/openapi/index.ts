export * from './openapi.builder';
export * from './openapi.controller';
export * from './openapi.types';
export * from './operation.decorator';
export * from './registered-routes';
export * from './request-schemas';
