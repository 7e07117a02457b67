// Runs the webhooks service as its own process (distributed mode).

import 'reflect-metadata';
import { runMain } from '@paygrid/platform';
import { readWebhooksConfig } from './config';
import { createWebhooks } from './webhooks';

runMain(() => readWebhooksConfig(process.env), createWebhooks);
