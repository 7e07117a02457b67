// Runs the payments service as its own process (distributed mode).

import 'reflect-metadata';
import { runMain } from '@paygrid/platform';
import { readPaymentsConfig } from './config';
import { createPayments } from './payments';

runMain(() => readPaymentsConfig(process.env), createPayments);
