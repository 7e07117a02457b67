// Runs the invoicing service as its own process (distributed mode).

import 'reflect-metadata';
import { runMain } from '@paygrid/platform';
import { readInvoicingConfig } from './config';
import { createInvoicing } from './invoicing';

runMain(() => readInvoicingConfig(process.env), createInvoicing);
