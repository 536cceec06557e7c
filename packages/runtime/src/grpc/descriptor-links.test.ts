import { FileDescriptorProto, type IFileDescriptorProto } from 'protobufjs/ext/descriptor';
import { linkFileDescriptors, mapEntryName } from './descriptor-links';

const encode = (file: IFileDescriptorProto): Uint8Array =>
  FileDescriptorProto.encode(FileDescriptorProto.fromObject(file)).finish();
const decode = (bytes: Uint8Array): IFileDescriptorProto =>
  FileDescriptorProto.decode(bytes) as IFileDescriptorProto;

describe('linkFileDescriptors', () => {
  // The shape proto-loader produces: no imports, relative references, map entries named after the field.
  const common: IFileDescriptorProto = {
    name: 'eligo_common_v1.proto',
    package: 'eligo.common.v1',
    messageType: [{ name: 'BuildInfo', field: [{ name: 'module', number: 1, label: 1, type: 9 }] }],
    syntax: 'proto3',
  };
  const programs: IFileDescriptorProto = {
    name: 'eligo_programs_v1.proto',
    package: 'eligo.programs.v1',
    messageType: [
      {
        name: 'GetInfoResponse',
        field: [
          { name: 'build_info', number: 1, label: 1, type: 11, typeName: 'common.v1.BuildInfo' },
          { name: 'metadata_values', number: 2, label: 3, type: 11, typeName: 'Metadata_values' },
          { name: 'inner', number: 3, label: 1, type: 11, typeName: 'Inner' },
        ],
        nestedType: [
          {
            name: 'Metadata_values',
            field: [
              { name: 'key', number: 1, label: 1, type: 9 },
              { name: 'value', number: 2, label: 1, type: 9 },
            ],
            options: { mapEntry: true },
          },
          { name: 'Inner' },
        ],
      },
      { name: 'GetInfoRequest' },
    ],
    service: [
      {
        name: 'ProgramsService',
        method: [
          { name: 'GetInfo', inputType: 'GetInfoRequest', outputType: 'eligo.programs.v1.GetInfoResponse' },
        ],
      },
    ],
    syntax: 'proto3',
  };

  const [linkedPrograms, linkedCommon] = linkFileDescriptors([encode(programs), encode(common)]).map(decode);

  it('declares the files that define referenced types as dependencies', () => {
    expect(linkedPrograms?.dependency).toEqual(['eligo_common_v1.proto']);
    expect(linkedCommon?.dependency).toEqual([]);
  });

  it('qualifies every reference fully, resolving relative names the protobuf way', () => {
    const response = linkedPrograms!.messageType![0]!;
    expect(response.field!.map((f) => f.typeName)).toEqual([
      '.eligo.common.v1.BuildInfo',
      '.eligo.programs.v1.GetInfoResponse.MetadataValuesEntry',
      '.eligo.programs.v1.GetInfoResponse.Inner',
    ]);
    expect(linkedPrograms!.service![0]!.method![0]).toMatchObject({
      inputType: '.eligo.programs.v1.GetInfoRequest',
      outputType: '.eligo.programs.v1.GetInfoResponse',
    });
  });

  it('names map entries as protoc does', () => {
    const nested = linkedPrograms!.messageType![0]!.nestedType!.map((n) => n.name);
    expect(nested).toEqual(['MetadataValuesEntry', 'Inner']);
  });

  it('does not write unset references back as empty strings', () => {
    // A present-but-empty type_name makes strict linkers (Go's) reject the file.
    const scalar = linkedCommon!.messageType![0]!.field![0]!;
    expect(Object.prototype.hasOwnProperty.call(scalar, 'typeName')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(scalar, 'extendee')).toBe(false);
  });
});

describe('mapEntryName', () => {
  it.each([
    ['statuses', 'StatusesEntry'],
    ['metadata_values', 'MetadataValuesEntry'],
    ['a__b', 'ABEntry'],
    ['x_', 'XEntry'],
  ])('%s -> %s', (field, entry) => {
    expect(mapEntryName(field)).toBe(entry);
  });
});
