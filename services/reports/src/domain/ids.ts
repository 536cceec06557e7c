/** Report and batch ids: 24 lowercase hex characters (96 random bits), the rule of every Eligo id. */
export { isId, newId } from '@eligo/vocabulary';
