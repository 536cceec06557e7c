// Public surface of the object-store layer; the runtime's index re-exports it.
export {
  DEFAULT_CONTENT_TYPE,
  MAX_PRESIGN_SECONDS,
  isObjectNotFound,
  type ListedObject,
  type ObjectStat,
  type ObjectStore,
  type PresignOptions,
  type PutOptions,
  type PutResult,
} from './object-store';
export { createS3ObjectStore, S3ObjectStore, type S3ObjectStoreConfig } from './s3-store';
export { createFsObjectStore, FsObjectStore, type FsObjectStoreConfig, type OpenedObject } from './fs-store';
export {
  createEncryptedObjectStore,
  EncryptedObjectStore,
  type EncryptedObjectStoreConfig,
} from './encrypted-store';
export {
  createFsObjectRouter,
  createSignedObjectRouter,
  type FsObjectRouterOptions,
  type SignedObjectHost,
} from './fs-object-router';
export { deleteObjects, sweepOrphans, type OrphanSweep } from './orphan-sweep';
export { SealedObjectError } from '../crypto/object-cipher';
export { MIN_SECRET_LENGTH as MIN_OBJECT_SIGNING_SECRET_LENGTH } from './fs-signing';
export { keyProblem as objectKeyProblem, MAX_KEY_LENGTH as MAX_OBJECT_KEY_LENGTH } from './validation';
