import { render } from 'preact';
import { App } from './app';
import { reportHeight } from './embed/page-events';
import { readStart } from './start';
import './styles.css';

// The page's HTML (served by the gateway, services/gateway/src/http/verify-page.ts) has one mount point.
const root = document.getElementById('eligo-verify');
if (root) {
  const start = readStart(window.location, window.history);
  document.body.classList.toggle('embedded', start.embedded);
  render(<App start={start} />, root);
  reportHeight(start);
}
