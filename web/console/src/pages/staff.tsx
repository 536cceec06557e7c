import { listStaff } from '../api';
import { PagedTable, usePages } from '../paged-table';
import { formatTime, Time, PageTitle } from '../ui';

/**
 * The staff members (admin only). Creating one stays a command (`eligo admin staff create`) or an admin API
 * call: its password is shown once, which a terminal keeps better than a page.
 */
export function StaffPage() {
  const pages = usePages((cursor) => listStaff(cursor), []);
  return (
    <>
      <PageTitle>Staff</PageTitle>
      <p class="muted">
        Create a member with{' '}
        <code>eligo admin staff create --email … --name … --role reviewer|support|admin</code>; it prints
        their password once.
      </p>
      <PagedTable
        pages={pages}
        what="list the staff"
        rows={(data) => data.staff}
        caption="Staff members, newest first"
        heads={['Name', 'Email', 'Role', 'State', 'Created']}
        row={(s) => (
          <tr key={s.staffId}>
            <td>{s.name}</td>
            <td>{s.email}</td>
            <td>{s.role}</td>
            <td>
              {s.disabled
                ? `disabled ${formatTime(s.disabledAt)}`
                : s.lockedUntil && s.lockedUntil > Date.now()
                  ? `locked until ${formatTime(s.lockedUntil)}`
                  : 'active'}
            </td>
            <td>
              <Time value={s.created} />
            </td>
          </tr>
        )}
      />
    </>
  );
}
