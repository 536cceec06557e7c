// Schema names end up in identifiers and NOTIFY channel names, where they cannot be bound as parameters;
// a strict shape keeps them safe to interpolate. 50 characters leave room for the channel prefix within
// Postgres' 63-byte identifier limit.
const SCHEMA = /^[a-z_][a-z0-9_]{0,49}$/;

export function assertSchemaName(schema: string): string {
  if (!SCHEMA.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  return schema;
}

/** The channel a service's outbox NOTIFYs on commit, one per schema so relays of other services sleep on. */
export function outboxChannel(schema: string): string {
  return `eligo_outbox_${assertSchemaName(schema)}`;
}
