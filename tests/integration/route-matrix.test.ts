// The security matrix, generated from the OpenAPI document the running platform serves. For
// EVERY operation in /v1/openapi.json: no key -> 401, revoked key -> 401, an object of the
// other mode or of another account -> 404, a key without the scope -> 403, an account without
// the grouping -> 403, an unknown field -> 400; and the happy call, whose answer must match
// the document's response schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). The
// document itself must list exactly the /v1 routes the services serve, so a route added
// without @Operation fails here (and in the service, which refuses to build its fragment).
//
// The document, its validator and the fixtures are in route-matrix/matrix.helpers.ts; the
// cases in route-matrix/ by concern, run here against one platform: each test file that
// starts one costs seconds of CPU per mode, so the suite stays one file.

import { startPlatform, type Platform } from '../support/platform';
import { documentCases } from './route-matrix/document.cases';
import { loadRouteMatrix, type RouteMatrix } from './route-matrix/matrix.helpers';
import { operationCases } from './route-matrix/operations.cases';

let platform: Platform;
let matrix: RouteMatrix;
const ctx = () => matrix;

beforeAll(async () => {
  platform = await startPlatform();
  matrix = await loadRouteMatrix(platform);
});

afterAll(async () => {
  await platform?.stop();
});

documentCases(ctx);
operationCases(ctx);
