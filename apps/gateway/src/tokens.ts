export const UPSTREAM = Symbol('UPSTREAM');
/** The services this installation runs (GatewayConfig.services). */
export const INSTALLED_SERVICES = Symbol('INSTALLED_SERVICES');
