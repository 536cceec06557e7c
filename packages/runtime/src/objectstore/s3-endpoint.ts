/** The pieces of an S3 endpoint URL that the minio client takes as separate options. */
export interface S3Endpoint {
  endPoint: string;
  port: number;
  useSSL: boolean;
}

/**
 * Parses one endpoint URL (what operators write in ELIGO_S3_ENDPOINT) into host, port and TLS. Throws a plain
 * Error naming the problem so a bad config fails at boot rather than on the first upload.
 */
export function parseS3Endpoint(endpoint: string): S3Endpoint {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`S3 endpoint must be a URL such as http://host:9000, got ${endpoint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`S3 endpoint must be http:// or https://, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new Error('S3 endpoint must not carry credentials; set the access and secret keys instead');
  }
  // The client signs requests for the host root; a path prefix would be silently dropped, so refuse it.
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    throw new Error('S3 endpoint must be scheme://host[:port] only; the bucket is configured separately');
  }
  const useSSL = url.protocol === 'https:';
  return {
    // URL keeps IPv6 literals bracketed; the client wants the bare address.
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
  };
}
