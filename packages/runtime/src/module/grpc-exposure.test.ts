import pino from 'pino';
import { loadConfig } from '../config/config';
import { checkGrpcExposure, grpcBindHost } from './grpc-exposure';

const token = 't'.repeat(40);

describe('where gRPC listens', () => {
  const deployment = ['gateway', 'programs', 'verification'];
  it('keeps all-in-one on loopback unless told otherwise, a split process on ELIGO_BIND_HOST', () => {
    expect(grpcBindHost(loadConfig({}), deployment, deployment)).toBe('127.0.0.1');
    expect(grpcBindHost(loadConfig({ ELIGO_GRPC_BIND_HOST: '0.0.0.0' }), deployment, deployment)).toBe(
      '0.0.0.0',
    );
    expect(grpcBindHost(loadConfig({}), ['programs'], deployment)).toBe('0.0.0.0');
    expect(grpcBindHost(loadConfig({ ELIGO_BIND_HOST: '10.0.0.7' }), ['gateway'], deployment)).toBe(
      '10.0.0.7',
    );
  });
  it("binds a service's own process (it knows no deployment) beyond loopback, though it hosts all it knows", () => {
    expect(grpcBindHost(loadConfig({}), ['programs'], undefined)).toBe('0.0.0.0');
  });
});

describe('a gRPC server beyond loopback', () => {
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });

  it('refuses to start without call authentication, naming the ways out', () => {
    expect(() => checkGrpcExposure(loadConfig({}), '0.0.0.0', log)).toThrow(
      /ELIGO_INTERNAL_TOKEN.*ELIGO_GRPC_INSECURE=true/s,
    );
    expect(() => checkGrpcExposure(loadConfig({}), '10.1.2.3', log)).toThrow(
      'refusing to serve gRPC on 10.1.2.3',
    );
  });

  it('starts with a token, on loopback, or with the explicit insecure setting and a warning', () => {
    checkGrpcExposure(loadConfig({ ELIGO_INTERNAL_TOKEN: token }), '0.0.0.0', log);
    checkGrpcExposure(loadConfig({}), '127.0.0.1', log);
    expect(warnings).toEqual([]);
    checkGrpcExposure(loadConfig({ ELIGO_GRPC_INSECURE: 'true' }), '0.0.0.0', log);
    expect(warnings.join('')).toContain('without call authentication');
  });
});
