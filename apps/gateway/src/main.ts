// Runs the gateway as its own process (distributed mode).

import 'reflect-metadata';
import { runMain } from '@paygrid/platform';
import { readGatewayConfig } from './config';
import { createGateway } from './gateway';

runMain(
  () => readGatewayConfig(process.env),
  (config) => createGateway(config),
);
