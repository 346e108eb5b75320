// The shape of the schema the client checks messages against (web/src/check.ts): its own
// module, so that the generated checks.gen.ts and check.ts do not import each other.

type JsonValue = string | number | boolean | null;

/** A schema as checks.gen.ts writes it: the JSON Schema's keywords, references by bare name,
 * and a discriminated union as `tag` (the field that tells) and its `cases`. */
export interface Schema {
  type?: "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";
  $ref?: string;
  anyOf?: Schema[];
  tag?: string;
  cases?: Record<string, Schema>;
  const?: JsonValue;
  enum?: JsonValue[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema;
  propertyNames?: Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}
