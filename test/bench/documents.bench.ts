import { randomBytes } from 'node:crypto';
import { createS3ObjectStore } from '@eligo/runtime';
import { sampleFiles } from '../support/documents-api';
import { startAllInProcess } from '../support/in-process';
import { programsApi } from '../support/programs-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';
import { measure, report, type Figures } from './measure';

/**
 * Form B upload of a 5 MB file through the gateway (multipart -> spooled per part -> presigned PUT to MinIO,
 * type sniffed by the documents service, review queued) against a direct presigned PUT of the same bytes
 * to MinIO, in the same run on the suite's MinIO. Memory: the process's peak RSS above its level before each
 * phase, sampled every 20 ms; flat means it does not grow with the number of uploads or their size.
 * Goal: gateway >= 70% of the direct throughput, memory flat. Run: `cd test && npm run bench -- documents`.
 */
const UPLOADS = 60;
const CONCURRENCY = 4;
const FILE_BYTES = 5 * 1024 * 1024;

it('form B upload of a 5 MB file: through the gateway against a direct PUT to MinIO', async () => {
  const eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none' });
  try {
    const api = programsApi(eligo);
    const flow = verificationApi(api);
    const { account } = await api.tenant('Bench Docs');
    const { programId } = await api.createProgram(account.accountId, {
      offerType: 'staticCode',
      rewardCode: 'B',
    });
    const organization = await importUniversity(api, programId);
    // A real PNG header, then noise: the documents service sniffs the first bytes.
    const file = Buffer.concat([sampleFiles.png, randomBytes(FILE_BYTES - sampleFiles.png.length)]);

    // One verification at docUpload per upload (each upload ends its verification's docUpload step).
    const urls: string[] = [];
    for (let i = 0; i < UPLOADS + 4; i++) {
      const { verificationId } = await flow.started(programId);
      const res = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
        ...janeDoe,
        firstName: 'REJECTED',
        email: `bench-${i}@example.com`,
        organization,
      });
      if (res.body.currentStep !== 'docUpload') throw new Error(JSON.stringify(res.body));
      urls.push(`${eligo.httpUrl}/rest/v2/verification/${verificationId}/step/docUpload`);
    }
    const throughGateway = async (i: number) => {
      const form = new FormData();
      form.append('file1', new Blob([file], { type: 'image/png' }), 'card.png');
      const res = await fetch(urls[i]!, { method: 'POST', body: form });
      const body = (await res.json()) as { currentStep?: string };
      if (res.status !== 200 || body.currentStep !== 'pending')
        throw new Error(`gateway upload: ${res.status} ${JSON.stringify(body)}`);
    };

    const store = createS3ObjectStore({
      endpoint: eligo.config.s3!.endpoint,
      accessKey: eligo.config.s3!.accessKey,
      secretKey: eligo.config.s3!.secretKey,
      bucket: `bench-direct-${randomBytes(4).toString('hex')}`,
      region: eligo.config.s3!.region,
      pathStyle: eligo.config.s3!.pathStyle,
    });
    await store.ensureBucket();
    const direct = async (i: number) => {
      const url = await store.presignPut(`direct/${i}`, { expiresInSeconds: 600 });
      const res = await fetch(url, { method: 'PUT', body: file, headers: { 'content-type': 'image/png' } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`direct PUT: ${res.status}`);
    };

    const withPeakRss = async (run: () => Promise<Figures>): Promise<[Figures, number]> => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      try {
        return [await run(), Math.round((peak - before) / 1024 / 1024)];
      } finally {
        clearInterval(timer);
      }
    };

    await measure('warm-up', 2, 2, (i) => direct(10_000 + i));
    const [directFigures, directRss] = await withPeakRss(() =>
      measure(`direct PUT to MinIO, ${CONCURRENCY} clients`, UPLOADS, CONCURRENCY, direct),
    );
    await measure('warm-up', 4, 2, (i) => throughGateway(UPLOADS + i));
    const [gatewayFigures, gatewayRss] = await withPeakRss(() =>
      measure(`form B through the gateway, ${CONCURRENCY} clients`, UPLOADS, CONCURRENCY, throughGateway),
    );
    report('5 MB uploads (perSecond = uploads/s)', [directFigures, gatewayFigures]);
    const ratio = gatewayFigures.perSecond / directFigures.perSecond;
    const mb = (f: Figures) => ((f.perSecond * FILE_BYTES) / 1024 / 1024).toFixed(1);
    process.stdout.write(
      `direct ${mb(directFigures)} MB/s, gateway ${mb(gatewayFigures)} MB/s: ${ratio.toFixed(2)} ` +
        `(goal >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'})\n` +
        `peak RSS above the start of the phase: direct ${directRss} MB, gateway ${gatewayRss} MB ` +
        `(${UPLOADS} uploads of ${FILE_BYTES / 1024 / 1024} MB, ${CONCURRENCY} at a time)\n`,
    );
  } finally {
    await eligo.stop();
  }
}, 600_000);
