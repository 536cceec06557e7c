import { docUploadForm } from './doc-upload-form';

describe('docUploadForm: the Content-Type chooses the form of a docUpload body', () => {
  it.each([
    ['application/json', 'manifest'],
    ['application/json; charset=utf-8', 'manifest'],
    ['Application/JSON', 'manifest'],
    ['multipart/form-data; boundary=----x', 'multipart'],
    ['multipart/form-data', 'multipart'],
    [' MULTIPART/FORM-DATA ;boundary=abc', 'multipart'],
  ])('%s -> %s', (contentType, form) => {
    expect(docUploadForm(contentType)).toBe(form);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/mixed; boundary=x',
    'application/merge-patch+json',
    'application/jsonx',
    'image/png',
  ])('refuses %p', (contentType) => {
    expect(docUploadForm(contentType)).toBeUndefined();
  });
});
