{{/* The modules of `eligo start --target`, in the order of docs/operations.md. */}}
{{- define "eligo.moduleNames" -}}
gateway verification documents organizations programs reports notifier
{{- end }}

{{/* <fullnameOverride or release name>, the prefix of every object: <release>-<module>. */}}
{{- define "eligo.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- end }}

{{- define "eligo.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* Selector labels of one component (a module, `all`, or `migrate-<module>`). Arguments: root, component. */}}
{{- define "eligo.selectorLabels" -}}
app.kubernetes.io/name: eligo
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "eligo.labels" -}}
{{ include "eligo.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end }}

{{/* Whether a secret entry has a value or an existing Secret. Arguments: root, name. */}}
{{- define "eligo.secretGiven" -}}
{{- $s := index .root.Values.secrets .name }}
{{- if or $s.value $s.existingSecret }}true{{ end }}
{{- end }}

{{/* Fails the render, naming the value to set, when a required secret has neither a value nor an existingSecret. */}}
{{- define "eligo.checkSecrets" -}}
{{- $required := list "databaseUrl" "encryptionKey" "adminToken" }}
{{- if eq .Values.mode "split" }}{{ $required = append $required "internalToken" }}{{ end }}
{{- if .Values.config.s3.endpoint }}{{ $required = concat $required (list "s3AccessKey" "s3SecretKey") }}{{ end }}
{{- range $required }}
{{- if not (include "eligo.secretGiven" (dict "root" $ "name" .)) }}
{{- fail (printf "secrets.%s is required: set secrets.%s.value or secrets.%s.existingSecret (see docs/operations.md, \"Kubernetes (Helm)\")" . . .) }}
{{- end }}
{{- end }}
{{- end }}

{{/* The inline secret values, as Secret data (base64), for the chart's own Secret. */}}
{{- define "eligo.secretData" -}}
{{- range $name, $s := .Values.secrets }}
{{- if and $s.value (not $s.existingSecret) }}
{{ $s.key }}: {{ $s.value | b64enc }}
{{- end }}
{{- end }}
{{- end }}

{{/* An env entry from a secret. Arguments: root, name (of the secrets entry), env, inline (the chart Secret's name). */}}
{{- define "eligo.secretEnv" -}}
{{- $s := index .root.Values.secrets .name -}}
- name: {{ .env }}
  valueFrom:
    secretKeyRef:
      name: {{ $s.existingSecret | default .inline }}
      key: {{ $s.key }}
{{- end }}

{{/* The non-secret ELIGO_* settings, one "NAME: value" line each (ConfigMap data, and the migration Jobs' env). */}}
{{- define "eligo.configData" -}}
{{- $c := .Values.config }}
ELIGO_LOG_LEVEL: {{ $c.logLevel | quote }}
ELIGO_SHUTDOWN_DELAY_MS: {{ .Values.shutdown.delayMs | toString | quote }}
ELIGO_SHUTDOWN_GRACE_MS: {{ .Values.shutdown.graceMs | toString | quote }}
{{- with $c.publicBaseUrl }}
ELIGO_PUBLIC_BASE_URL: {{ . | quote }}
{{- end }}
{{- with $c.gatewayTrustProxy }}
ELIGO_GATEWAY_TRUST_PROXY: {{ . | quote }}
{{- end }}
{{- with $c.kafka.brokers }}
ELIGO_KAFKA_BROKERS: {{ . | quote }}
{{- end }}
{{- with $c.kafka.groupPrefix }}
ELIGO_KAFKA_GROUP_PREFIX: {{ . | quote }}
{{- end }}
{{- if $c.s3.endpoint }}
ELIGO_S3_ENDPOINT: {{ $c.s3.endpoint | quote }}
ELIGO_S3_BUCKET: {{ $c.s3.bucket | quote }}
ELIGO_S3_REGION: {{ $c.s3.region | quote }}
ELIGO_S3_PATH_STYLE: {{ $c.s3.pathStyle | toString | quote }}
{{- end }}
{{- if eq .Values.mode "split" }}
{{- $root := . }}
{{- range splitList " " (include "eligo.moduleNames" .) }}
{{- if (index $root.Values.modules .).enabled }}
ELIGO_{{ upper . }}_GRPC_ADDRESS: {{ printf "%s-%s:9090" (include "eligo.fullname" $root) . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- range $k, $v := $c.extra }}
{{ $k }}: {{ $v | quote }}
{{- end }}
{{- end }}

{{/* The secret env entries of every container. Arguments: root, inline (the chart Secret's name). */}}
{{- define "eligo.secretEnvs" -}}
{{- $a := . }}
{{ include "eligo.secretEnv" (dict "root" $a.root "name" "databaseUrl" "env" "ELIGO_DATABASE_URL" "inline" $a.inline) }}
{{ include "eligo.secretEnv" (dict "root" $a.root "name" "encryptionKey" "env" "ELIGO_ENCRYPTION_KEY" "inline" $a.inline) }}
{{ include "eligo.secretEnv" (dict "root" $a.root "name" "adminToken" "env" "ELIGO_ADMIN_TOKEN" "inline" $a.inline) }}
{{- if $a.root.Values.config.s3.endpoint }}
{{ include "eligo.secretEnv" (dict "root" $a.root "name" "s3AccessKey" "env" "ELIGO_S3_ACCESS_KEY" "inline" $a.inline) }}
{{ include "eligo.secretEnv" (dict "root" $a.root "name" "s3SecretKey" "env" "ELIGO_S3_SECRET_KEY" "inline" $a.inline) }}
{{- end }}
{{- end }}

{{/* The hardened pod and container security settings (the image's uid 1000, read-only root filesystem). */}}
{{- define "eligo.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "eligo.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* The writable places: the data dir and /tmp, both emptyDirs. */}}
{{- define "eligo.scratchVolumes" -}}
- name: data
  emptyDir:
    sizeLimit: {{ .Values.dataDirSizeLimit }}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end }}

{{- define "eligo.scratchMounts" -}}
- name: data
  mountPath: /var/lib/eligo
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* Pod scheduling settings shared by every pod. */}}
{{- define "eligo.scheduling" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* The component serving the REST API: the gateway, or the one Deployment of mode all. */}}
{{- define "eligo.gatewayComponent" -}}
{{- if eq .Values.mode "all" }}all{{ else }}gateway{{ end }}
{{- end }}

{{/* Whether an HPA owns a module's replicas (mode split only). Arguments: root, name. */}}
{{- define "eligo.autoscaled" -}}
{{- $a := index .root.Values.autoscaling .name | default dict }}
{{- if and (eq .root.Values.mode "split") $a.enabled (index .root.Values.modules .name).enabled }}true{{ end }}
{{- end }}

{{/*
The modules that call each module over gRPC: the reverse of each service's `dependsOn`
(services/<name>/src/index.ts). NetworkPolicy admits these, and only these, to a module's port 9090.
*/}}
{{- define "eligo.callers" -}}
gateway: []
verification: [gateway, documents, notifier, reports]
documents: [gateway]
organizations: [gateway, verification]
programs: [gateway, verification, organizations, notifier, reports]
reports: [gateway]
notifier: [gateway]
{{- end }}

{{/* The Deployments this release renders, as a list of components (module names, or "all"). */}}
{{- define "eligo.components" -}}
{{- if eq .Values.mode "all" }}all{{ else }}
{{- $root := . }}
{{- $out := list }}
{{- range splitList " " (include "eligo.moduleNames" .) }}
{{- if (index $root.Values.modules .).enabled }}{{ $out = append $out . }}{{ end }}
{{- end }}
{{- join " " $out }}
{{- end }}
{{- end }}
