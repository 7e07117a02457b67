// Structured JSON logs (pino), with a NestJS adapter so framework messages share the format.

import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** `file`: append the lines to this file instead of stdout (tests read them back). */
export function createLogger(service: string, level = 'info', file?: string): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Card data must never reach a log line, whatever a handler passes in.
    redact: {
      paths: ['*.card_number', '*.cvc', '*.number', 'req.headers.authorization', '*.secret'],
      censor: '[redacted]',
    },
  };
  return file ? pino(options, pino.destination({ dest: file, sync: true })) : pino(options);
}

export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
