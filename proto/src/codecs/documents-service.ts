import { makeGenericClientConstructor } from '@grpc/grpc-js';
import {
  DocumentsServiceClient as GeneratedClient,
  DocumentsServiceService as GeneratedService,
} from '../gen/eligo/documents/v1/documents_service';
import { deserializeUploadFilesRequest, serializeUploadFilesRequest } from './upload-files';

export { allocUploadChunk } from './upload-files';

/**
 * The documents service's definition with UploadFiles' request codec replaced by the lean one
 * (./upload-files.ts); every other method is the generated one. The bytes on the wire are the same, so a
 * client or server on the generated definition talks to one on this one. Both the gateway's client and the
 * documents service's server use this definition.
 */
export const DocumentsServiceService: typeof GeneratedService = {
  ...GeneratedService,
  uploadFiles: {
    ...GeneratedService.uploadFiles,
    requestSerialize: serializeUploadFilesRequest,
    requestDeserialize: deserializeUploadFilesRequest,
  },
};

export const DocumentsServiceClient = makeGenericClientConstructor(
  DocumentsServiceService,
  'eligo.documents.v1.DocumentsService',
) as unknown as typeof GeneratedClient;
