import { organizationsOrganizationV1 } from '@eligo/proto';
import {
  acceptInputToProto,
  addSchoolRequestToJson,
  addSchoolStatusToProto,
  organizationDetailToJson,
  organizationToJson,
  searchResultToJson,
} from './organization';

const { Organization, AddSchoolRequest, AddSchoolRequestStatus, OrganizationInput } =
  organizationsOrganizationV1;

const stanford = Organization.fromPartial({
  id: 42,
  name: 'Stanford University',
  type: 'UNIVERSITY',
  country: 'US',
  domains: ['stanford.edu'],
  city: 'Stanford',
  state: '',
  externalKey: 'swot:stanford.edu',
  loginUrl: 'https://login.stanford.edu/idp',
});

describe('Organization -> JSON', () => {
  it('gives searches the spec fields only (no loginUrl)', () => {
    expect(organizationToJson(stanford)).toEqual({
      id: 42,
      name: 'Stanford University',
      country: 'US',
      type: 'UNIVERSITY',
    });
  });

  it('gives operators everything, unknown city or state as null', () => {
    expect(organizationDetailToJson(stanford)).toEqual({
      id: 42,
      name: 'Stanford University',
      type: 'UNIVERSITY',
      country: 'US',
      domains: ['stanford.edu'],
      city: 'Stanford',
      state: null,
      externalKey: 'swot:stanford.edu',
      loginUrl: 'https://login.stanford.edu/idp',
    });
    expect(
      organizationDetailToJson(Organization.fromPartial({ ...stanford, loginUrl: '' })).loginUrl,
    ).toBeNull();
  });

  it('splits an add-school search result, keeping its errorIds', () => {
    const other = Organization.fromPartial({ id: 7, name: 'MIT', type: 'UNIVERSITY', country: 'US' });
    expect(
      searchResultToJson({
        errorIds: ['tooManyOrganizationMatches'],
        eligible: [stanford],
        ineligible: [other],
      }),
    ).toEqual({
      errorIds: ['tooManyOrganizationMatches'],
      eligible: [{ id: 42, name: 'Stanford University', country: 'US', type: 'UNIVERSITY' }],
      ineligible: [{ id: 7, name: 'MIT', country: 'US', type: 'UNIVERSITY' }],
    });
    // A reply without the result is a service bug (500), not an empty answer.
    expect(() => searchResultToJson(undefined)).toThrow('without result');
  });
});

describe('AddSchoolRequest -> JSON', () => {
  const base = {
    requestId: 'ab'.repeat(12),
    programId: 'cd'.repeat(12),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    schoolName: 'Analytical College',
    schoolDomain: 'analytical.edu',
    schoolCountry: 'GB',
    createdAt: new Date('2030-01-02T03:04:05.678Z'),
  };

  it('shows a pending request with nulls for what is not decided', () => {
    const json = addSchoolRequestToJson(
      AddSchoolRequest.fromPartial({
        ...base,
        status: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_PENDING,
      }),
    );
    expect(json).toEqual({
      requestId: base.requestId,
      programId: base.programId,
      status: 'PENDING',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      schoolName: 'Analytical College',
      schoolDomain: 'analytical.edu',
      schoolCountry: 'GB',
      created: Date.parse('2030-01-02T03:04:05.678Z'),
      decided: null,
      organizationId: null,
      declineReason: null,
      trackingId: null,
    });
  });

  it("shows the client's tracking id of the request", () => {
    const json = addSchoolRequestToJson(AddSchoolRequest.fromPartial({ ...base, trackingId: 'crm-42' }));
    expect(json.trackingId).toBe('crm-42');
  });

  it('shows the decision: the organization of an accept, the reason of a decline', () => {
    const decidedAt = new Date('2030-01-03T00:00:00Z');
    expect(
      addSchoolRequestToJson(
        AddSchoolRequest.fromPartial({
          ...base,
          status: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_ACCEPTED,
          decidedAt,
          organizationId: 9001,
        }),
      ),
    ).toMatchObject({ status: 'ACCEPTED', decided: decidedAt.getTime(), organizationId: 9001 });
    expect(
      addSchoolRequestToJson(
        AddSchoolRequest.fromPartial({
          ...base,
          status: AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED,
          decidedAt,
          declineReason: 'not a school',
        }),
      ),
    ).toMatchObject({ status: 'DECLINED', organizationId: null, declineReason: 'not a school' });
  });

  it('maps the list filter, none meaning every status', () => {
    expect(addSchoolStatusToProto(undefined)).toBe(
      AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_UNSPECIFIED,
    );
    expect(addSchoolStatusToProto('DECLINED')).toBe(
      AddSchoolRequestStatus.ADD_SCHOOL_REQUEST_STATUS_DECLINED,
    );
  });
});

describe('accept body -> OrganizationInput', () => {
  it('passes what staff set, the country upper case', () => {
    expect(
      acceptInputToProto({
        type: 'UNIVERSITY',
        name: 'X U',
        country: 'gb',
        domains: ['x.ac.uk'],
        city: 'Leeds',
      }),
    ).toEqual(
      OrganizationInput.fromPartial({
        type: 'UNIVERSITY',
        name: 'X U',
        country: 'GB',
        domains: ['x.ac.uk'],
        city: 'Leeds',
      }),
    );
  });

  it("leaves the rest empty, for the service to take from the request's school", () => {
    expect(acceptInputToProto({ type: 'K12' })).toEqual(OrganizationInput.fromPartial({ type: 'K12' }));
  });
});
