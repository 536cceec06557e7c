// Pure rules of the documents service: no I/O, table-tested beside each file. Shared words (errorIds, upload
// limits) come from @eligo/vocabulary.
export * from './documents';
export * from './ids';
export * from './mime';
export * from './file-name';
export * from './manifest';
export * from './sniff';
export * from './decision';
export * from './test-mode';
export * from './review-query';
export * from './claim';
