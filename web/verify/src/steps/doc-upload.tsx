import { MAX_FILE_BYTES, MAX_UPLOAD_FILES, MIN_UPLOAD_FILES } from '@eligo/vocabulary';
import { useState } from 'preact/hooks';
import { uploadDocuments, type Outcome, type Verification } from '../api';
import { humanize, type Messages } from '../messages';

const TYPES = ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'];

/** The checks made before anything is sent: count, size and type (the server checks the bytes again). */
function fileProblems(files: readonly File[], t: Messages['t']): string[] {
  const problems: string[] = [];
  if (files.length < MIN_UPLOAD_FILES || files.length > MAX_UPLOAD_FILES)
    problems.push(t('step.docUpload.count'));
  for (const f of files) {
    if (f.size === 0) problems.push(t('step.docUpload.empty', { file: f.name }));
    else if (f.size > MAX_FILE_BYTES) problems.push(t('step.docUpload.tooLarge', { file: f.name }));
    if (!TYPES.includes(f.type)) problems.push(t('step.docUpload.badType', { file: f.name }));
  }
  return problems;
}

/** docUpload: pick or drop 1-3 files, checked here first, uploaded with a progress bar each. */
export function DocUpload(props: {
  verification: Verification;
  messages: Messages;
  onOutcome(outcome: Outcome): void;
}) {
  const { t } = props.messages;
  const [files, setFiles] = useState<File[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [progress, setProgress] = useState<number[] | undefined>();
  const [dragging, setDragging] = useState(false);
  const reasons = props.verification.rejectionReasons ?? [];
  const serverErrors = (props.verification.errorIds ?? []).map(props.messages.error);

  const add = (list: FileList | null) => {
    if (!list) return;
    const next = [...files, ...Array.from(list)].slice(0, MAX_UPLOAD_FILES + 1);
    setFiles(next);
    setProblems([]);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const found = fileProblems(files, t);
    setProblems(found);
    if (found.length > 0) return;
    setProgress(files.map(() => 0));
    const submissionUrl = props.verification.submissionUrl;
    if (!submissionUrl) return;
    const outcome = await uploadDocuments(submissionUrl, files, (index, done) =>
      setProgress((p) => p?.map((v, i) => (i === index ? done : v))),
    );
    setProgress(undefined);
    if ('fileFailure' in outcome) {
      // Only this upload failed: the person stays here, with the files, and is told what to do.
      const { file, reason } = outcome.fileFailure;
      setProblems([t(`step.docUpload.${reason}`, { file })]);
      return;
    }
    props.onOutcome(outcome);
  };

  const uploading = progress !== undefined;
  return (
    <form class="step" onSubmit={submit} noValidate>
      <p class="step__intro">{t('step.docUpload.intro')}</p>
      {reasons.length > 0 ? (
        <div class="alert" role="alert">
          <p>{t('step.docUpload.rejected')}</p>
          <ul>
            {reasons.map((r) => (
              <li key={r}>
                {t(`rejectionReason.${r}`) === `rejectionReason.${r}`
                  ? humanize(r)
                  : t(`rejectionReason.${r}`)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {[...serverErrors, ...problems].length > 0 ? (
        <div class="alert" role="alert" id="upload-problems">
          {[...serverErrors, ...problems].map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      ) : null}
      <div
        class={`dropzone${dragging ? ' dropzone--active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          add(e.dataTransfer?.files ?? null);
        }}
      >
        <label class="button button--secondary" for="f-files">
          {t('step.docUpload.choose')}
        </label>
        <input
          id="f-files"
          class="visually-hidden"
          type="file"
          multiple
          accept={TYPES.join(',')}
          disabled={uploading}
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        <span class="dropzone__hint">{t('step.docUpload.drop')}</span>
      </div>
      <ul class="files">
        {files.map((f, i) => (
          <li key={`${f.name}-${i}`} class="files__item">
            <span class="files__name">{f.name}</span>
            {progress ? (
              <progress
                max={1}
                value={progress[i] ?? 0}
                aria-label={t('step.docUpload.uploading', { file: f.name })}
              />
            ) : (
              <button
                type="button"
                class="link"
                aria-label={t('step.docUpload.remove', { file: f.name })}
                onClick={() => setFiles(files.filter((_, j) => j !== i))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      <button type="submit" class="button" disabled={uploading || files.length === 0}>
        {t('step.docUpload.submit')}
      </button>
    </form>
  );
}
