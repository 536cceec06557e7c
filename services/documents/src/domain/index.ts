// Pure rules of the documents service: no I/O, table-tested beside each file.
export * from './documents';
export * from './error-ids';
export * from './mime';
export * from './file-name';
export * from './manifest';
export * from './sniff';
export * from './decision';
export * from './test-mode';
export * from './review-query';
