import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERROR_CATALOGUE, ERROR_CODES } from '../errors';
import { API_SCHEMAS, ERROR_RESPONSE_NAMES, errorResponseRef, type JsonSchema } from './index';

const ID = 'https://paygrid.invalid/schemas.json';

function ajv() {
  // Strict: the schemas may use only JSON Schema 2020-12 keywords (the wrapper aside).
  const instance = new Ajv2020({ allErrors: true });
  instance.addKeyword('components');
  addFormats(instance);
  instance.addSchema({ $id: ID, components: { schemas: API_SCHEMAS } });
  return instance;
}

const validatorFor = (name: string) => ajv().compile({ $ref: `${ID}#/components/schemas/${name}` });

describe('API_SCHEMAS', () => {
  it('compile, and every $ref they use resolves', () => {
    for (const name of Object.keys(API_SCHEMAS)) expect(() => validatorFor(name)).not.toThrow();
  });

  it('accept their own examples', () => {
    const walk = (schema: JsonSchema, path: string, found: [string, JsonSchema][]) => {
      if (schema.examples) found.push([path, schema]);
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        walk(property, `${path}.${name}`, found);
      return found;
    };
    const instance = ajv();
    for (const [name, schema] of Object.entries(API_SCHEMAS)) {
      for (const [path, withExamples] of walk(schema, name, [])) {
        const { examples, ...rest } = withExamples;
        const check = instance.compile({ ...rest, $id: `${ID}/${path}` });
        for (const example of examples ?? [])
          expect({ path, ok: check(example), errors: check.errors }).toMatchObject({ path, ok: true });
      }
    }
  });

  it('forbid properties the objects do not have', () => {
    const check = validatorFor('ErrorEnvelope');
    const error = { type: 'api_error', code: 'internal_error', message: 'x', request_id: 'req_12345678' };
    expect(check({ error })).toBe(true);
    expect(check({ error: { ...error, stack: 'at ...' } })).toBe(false);
    expect(check({ error, debug: true })).toBe(false);
  });
});

describe('the error envelope schema', () => {
  it('allows exactly the catalogue codes and types', () => {
    const error = (API_SCHEMAS.ErrorEnvelope.properties ?? {}).error;
    expect(error.properties?.code.enum).toEqual(ERROR_CODES);
    expect([...(error.properties?.type.enum ?? [])].sort()).toEqual(
      [...new Set(Object.values(ERROR_CATALOGUE).map((s) => s.type))].sort(),
    );
  });

  it('has a shared response for every status in the catalogue', () => {
    for (const code of ERROR_CODES) {
      const status = ERROR_CATALOGUE[code].status;
      expect(ERROR_RESPONSE_NAMES[status]).toBeDefined();
      expect(errorResponseRef(status).$ref).toBe(`#/components/responses/${ERROR_RESPONSE_NAMES[status]}`);
    }
    expect(() => errorResponseRef(418)).toThrow();
  });
});
