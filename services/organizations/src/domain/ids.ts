/**
 * Ids of add-school requests (and the programs they name): the shared rule of @eligo/vocabulary, 24 lowercase
 * hex characters from a CSPRNG (docs/architecture.md, "Data ownership"), so that a request id alone grants
 * nothing by being guessed. `isId` is checked before any lookup: a malformed id is answered without touching
 * the database or another service.
 */
export { isId, newId } from '@eligo/vocabulary';
