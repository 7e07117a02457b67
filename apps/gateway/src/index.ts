export * from './accounts/accounts.service';
export * from './config';
export * from './gateway';
export * from './routing/upstream';
