/**
 * Ids of accounts, tokens, programs and send-link requests: the shared rule of @eligo/vocabulary, 24 lowercase
 * hex characters from a CSPRNG (docs/architecture.md, "Data ownership"), so that an id alone grants nothing by
 * being guessed. A malformed id is answered like an unknown one (never reveal which ids exist): `isId` keeps
 * it off the database. `ID_HEX` is the same rule inside a larger pattern (client ids).
 */
export { ID_HEX, isId, newId } from '@eligo/vocabulary';
