#!/usr/bin/env node
// Standalone entry of the organizations service (one process per service); the only place that reads process.env.
import { runProcess } from '@eligo/runtime';
import { definition } from './index';
import { version } from '../package.json';

void runProcess({
  env: process.env,
  target: 'organizations',
  modules: { organizations: definition },
  version,
});
