import { parseS3Endpoint } from './s3-endpoint';

describe('parseS3Endpoint', () => {
  it.each([
    ['http://127.0.0.1:59000', { endPoint: '127.0.0.1', port: 59000, useSSL: false }],
    ['http://minio.storage.svc', { endPoint: 'minio.storage.svc', port: 80, useSSL: false }],
    [
      'https://s3.eu-west-1.amazonaws.com',
      { endPoint: 's3.eu-west-1.amazonaws.com', port: 443, useSSL: true },
    ],
    ['https://storage.example.com:8443/', { endPoint: 'storage.example.com', port: 8443, useSSL: true }],
    ['http://[::1]:9000', { endPoint: '::1', port: 9000, useSSL: false }],
  ])('parses %s', (endpoint, expected) => {
    expect(parseS3Endpoint(endpoint)).toEqual(expected);
  });

  it.each([
    ['127.0.0.1:9000', /must be a URL such as/],
    ['minio:9000', /must be http:\/\/ or https:\/\//],
    ['not a url', /must be a URL such as/],
    ['ftp://files.example.com', /http:\/\/ or https:\/\//],
    ['http://user:pass@minio:9000', /credentials/],
    ['http://minio:9000/bucket', /host\[:port\] only/],
    ['http://minio:9000/?x=1', /host\[:port\] only/],
  ])('refuses %s', (endpoint, why) => {
    expect(() => parseS3Endpoint(endpoint)).toThrow(why);
  });
});
