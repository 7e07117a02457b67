// @paygrid/sdk: the Paygrid API from TypeScript (README.md).

export { Paygrid, type Call, type PaygridOptions } from './client.js';
export { PaygridConnectionError, PaygridError } from './errors.js';
export { type CallOptions, type Resources } from './resources.js';
export { retryAfterMs } from './retry.js';
export { sseFrames, type StreamOptions } from './stream.js';
export type {
  components,
  ErrorCode,
  ErrorEnvelope,
  ErrorType,
  Event,
  EventOf,
  EventType,
  ListItem,
  ListPath,
  ListQuery,
  paths,
  Schemas,
  Timestamp,
  webhooks as WebhookOperations,
} from './types.js';
export { sign, verify, webhooks, WebhookVerificationError, type HeadersLike } from './webhooks.js';
