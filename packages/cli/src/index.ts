// @paygrid/cli as a library: what the tests and the example app call.

export { run, USAGE, type Io } from './cli';
export { parseData, UsageError } from './args';
export { listen, sessionSecret, type ListenOptions } from './listen';
export { TRIGGERS } from './triggers';
export { tailLogs, type TailOptions } from './logs';
