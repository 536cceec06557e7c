import { moduleOfService, splitPath } from './metrics';
import { serviceNameOf } from './unary';
import { programsV1 } from '@eligo/proto';

describe('names', () => {
  it.each([
    ['eligo.programs.v1.ProgramsService', 'programs'],
    ['eligo.verification.v2.VerificationService', 'verification'],
    ['grpc.health.v1.Health', 'runtime'],
  ])('%s belongs to module %s', (service, module) => {
    expect(moduleOfService(service)).toBe(module);
  });

  it('splits a method path', () => {
    expect(splitPath('/eligo.programs.v1.ProgramsService/GetInfo')).toEqual([
      'eligo.programs.v1.ProgramsService',
      'GetInfo',
    ]);
    expect(splitPath('garbage')).toEqual(['unknown', 'unknown']);
  });

  it('reads the service name from a generated definition', () => {
    expect(serviceNameOf(programsV1.ProgramsServiceService)).toBe('eligo.programs.v1.ProgramsService');
    expect(() => serviceNameOf({})).toThrow(/without methods/);
  });
});
