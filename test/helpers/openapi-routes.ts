import type { FastifyInstance } from 'fastify';

/** The part of a JSON schema the fuzzer reads: which fields an object has, at any depth. */
export interface FieldSchema {
  properties?: Record<string, FieldSchema>;
  items?: FieldSchema;
  anyOf?: FieldSchema[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: FieldSchema }> };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One route as the served OpenAPI document describes it. */
export interface DocumentedRoute {
  method: HttpMethod;
  /** With `{name}` placeholders, as documented. */
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  /** The JSON body's schema; undefined when the route takes no body. */
  body: FieldSchema | undefined;
}

/** Every route and method of `GET /openapi.json`, so a test covers routes added later without listing them. */
export async function documentedRoutes(app: FastifyInstance): Promise<DocumentedRoute[]> {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' });
  const doc = response.json<{ paths: Record<string, Record<string, Operation>> }>();
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const named = (place: Parameter['in']) =>
        parameters.filter((parameter) => parameter.in === place).map((parameter) => parameter.name);
      return {
        method: method.toUpperCase() as HttpMethod,
        path,
        pathParameters: named('path'),
        queryParameters: named('query'),
        body:
          operation.requestBody?.content?.['application/json']?.schema ??
          (operation.requestBody ? {} : undefined),
      };
    }),
  );
}

/** The field names an object schema documents, looking through `anyOf` and arrays of objects. */
export function fieldsOf(schema: FieldSchema | undefined): Record<string, FieldSchema> {
  if (schema === undefined) return {};
  const fromAlternatives = (schema.anyOf ?? []).map(fieldsOf);
  return Object.assign({}, ...fromAlternatives, fieldsOf(schema.items), schema.properties ?? {}) as Record<
    string,
    FieldSchema
  >;
}
