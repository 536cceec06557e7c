#!/usr/bin/env node
// Standalone entry of the gateway; the only place that reads process.env. The services it calls are found at
// ELIGO_<SERVICE>_GRPC_ADDRESS.
import { runProcess } from '@eligo/runtime';
import { definition } from './index';
import { version } from '../package.json';

void runProcess({ env: process.env, target: 'gateway', modules: { gateway: definition }, version });
