import { render } from 'preact';
import { App } from './app';
import { readBootstrap } from './bootstrap';
import './styles.css';

// The console's HTML (served by the gateway, services/gateway/src/http/console-page.ts) has one mount point.
const root = document.getElementById('eligo-console');
if (root) render(<App bootstrap={readBootstrap(document)} />, root);
