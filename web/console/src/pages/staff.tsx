import { listStaff } from '../api';
import { formatTime, Time, Pager, PageTitle, Pending, useCursor, useLoad } from '../ui';

/**
 * The staff members (admin only). Creating one stays a command (`eligo admin staff create`) or an admin API
 * call: its password is shown once, which a terminal keeps better than a page.
 */
export function StaffPage() {
  const [cursor, next, first] = useCursor();
  const [load] = useLoad(() => listStaff(cursor), [cursor]);
  return (
    <>
      <PageTitle>Staff</PageTitle>
      <p class="muted">
        Create a member with{' '}
        <code>eligo admin staff create --email … --name … --role reviewer|support|admin</code>; it prints
        their password once.
      </p>
      <Pending load={load} what="list the staff" />
      {load.state === 'ready' && (
        <>
          <table class="list">
            <caption class="visually-hidden">Staff members, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {load.data.staff.map((s) => (
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
              ))}
            </tbody>
          </table>
          <Pager
            next={load.data.nextCursor}
            atFirst={cursor === undefined}
            onNext={() => next(load.data.nextCursor)}
            onFirst={first}
          />
        </>
      )}
    </>
  );
}
