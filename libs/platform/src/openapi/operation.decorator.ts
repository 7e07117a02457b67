// `@Operation(...)`: the one place an API operation is described. The OpenAPI builder reads
// it together with the route, scope, DTO and status metadata NestJS already has.

import { SetMetadata } from '@nestjs/common';
import type { ApiSchemaName, ErrorCode } from '@paygrid/contracts';

export const OPERATION_METADATA = 'paygrid:operation';

export interface OperationSpec {
  summary: string;
  /** Markdown; what a caller needs to know beyond the summary. */
  description: string;
  /** The success response: a schema of `API_SCHEMAS` in @paygrid/contracts. */
  response: ApiSchemaName;
  /**
   * A success body that is not JSON (e.g. `application/pdf`, a rendering of `response`): the
   * document then describes the body as binary of this media type.
   */
  produces?: string;
  /** Defaults to `<resource>.<handler>`, e.g. `merchants.create`. */
  operationId?: string;
  /**
   * Codes this operation can answer besides the ones every operation of its kind can
   * (authentication, scope, validation, idempotency, rate limit, upstream failures).
   */
  errors?: ErrorCode[];
}

export const Operation = (spec: OperationSpec) => SetMetadata(OPERATION_METADATA, spec);
