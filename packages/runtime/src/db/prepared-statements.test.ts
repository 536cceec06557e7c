import { forgetStatement, preparingPgDialect, statementName } from './prepared-statements';

// Which statements get a name on a connection, and which name (db/prepared-statements.ts).
it('names a statement with parameters, the same one each time on its connection', () => {
  const connection = {};
  const name = statementName(connection, 'select "id" from "t" where "id" = $1', 1);
  expect(name).toMatch(/^eligo_\d+$/);
  expect(statementName(connection, 'select "id" from "t" where "id" = $1', 1)).toBe(name);
  expect(statementName(connection, 'select "size" from "t" where "id" = $1', 1)).not.toBe(name);
  // Names are the connection's own.
  expect(statementName({}, 'select "id" from "t" where "id" = $1', 1)).toBe('eligo_0');
});

it('leaves unnamed a statement without parameters, one naming *, and a very long one', () => {
  const connection = {};
  expect(statementName(connection, 'BEGIN;', 0)).toBeUndefined();
  expect(statementName(connection, 'select * from "t" where "id" = $1', 1)).toBeUndefined();
  expect(statementName(connection, 'select "p".*, count(*) from "p" where "id" = $1', 1)).toBeUndefined();
  expect(
    statementName(connection, `select "id" from "t" where "id" in (${'$1, '.repeat(5000)}$2)`, 2),
  ).toBeUndefined();
});

it('names at most 128 statements per connection', () => {
  const connection = {};
  const names = Array.from({ length: 130 }, (_, i) =>
    statementName(connection, `select "c${i}" from "t" where "id" = $1`, 1),
  );
  expect(names.filter((n) => n !== undefined)).toHaveLength(128);
  expect(names.slice(128)).toEqual([undefined, undefined]);
});

it('gives a forgotten statement a new name', () => {
  const connection = {};
  const sql = 'select "id" from "t" where "id" = $1';
  const first = statementName(connection, sql, 1);
  forgetStatement(connection, sql);
  const second = statementName(connection, sql, 1);
  expect(second).toBeDefined();
  expect(second).not.toBe(first);
});

it("positions a statement's parameters as knex does, once per text", () => {
  const positionBindings = (
    preparingPgDialect().prototype as unknown as { positionBindings(sql: string): string }
  ).positionBindings;
  const sql = 'select "id" from "t" where "id" = ? and "size" > ? and "note" = \'\\?\'';
  const first = positionBindings.call({}, sql);
  expect(first).toBe('select "id" from "t" where "id" = $1 and "size" > $2 and "note" = \'?\'');
  // A text built again (another string of the same characters) is answered from what was kept.
  expect(positionBindings.call({}, `${sql} `.trim())).toBe(first);
  const long = `select "id" from "t" where "id" in (${'?, '.repeat(2000)}?)`;
  expect(positionBindings.call({}, long)).toMatch(/\(\$1, \$2, .*\$2001\)$/);
});
