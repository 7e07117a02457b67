export { StripeConnector, storedCredential } from './stripe.connector';
export { StripeProcessor, STRIPE_NETWORK_RETRIES, STRIPE_TIMEOUT_MS } from './stripe.processor';
export * from './stripe-outcomes';
export * from './stripe-webhooks';
