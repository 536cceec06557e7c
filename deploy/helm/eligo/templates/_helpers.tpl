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
{{- if and (kindIs "map" $s) $s.value (not $s.existingSecret) }}
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
{{- if $c.kafka.brokers }}
{{- /* The migration Jobs leave these out (eligo.kafkaSecurityKeys): they never connect to Kafka. */}}
ELIGO_KAFKA_SSL: {{ $c.kafka.ssl | toString | quote }}
{{- with $c.kafka.saslMechanism }}
ELIGO_KAFKA_SASL_MECHANISM: {{ . | quote }}
{{- end }}
{{- with $c.kafka.saslUsername }}
ELIGO_KAFKA_SASL_USERNAME: {{ . | quote }}
{{- end }}
{{- end }}
{{- if $c.s3.endpoint }}
ELIGO_S3_ENDPOINT: {{ $c.s3.endpoint | quote }}
ELIGO_S3_BUCKET: {{ $c.s3.bucket | quote }}
ELIGO_S3_REGION: {{ $c.s3.region | quote }}
ELIGO_S3_PATH_STYLE: {{ $c.s3.pathStyle | toString | quote }}
{{- end }}
{{- with $c.smtpFrom }}
ELIGO_SMTP_FROM: {{ . | quote }}
{{- end }}
{{- /* Staff settings: null (or absent) leaves the process's default; 0 is a value (no sign-in limit). int64:
Helm reads large numbers as floats, which would print as 4.32e+07. */}}
{{- range $key, $env := dict "sessionLifetimeMs" "SESSION_LIFETIME_MS" "sessionIdleMs" "SESSION_IDLE_MS" "lockoutAttempts" "LOCKOUT_ATTEMPTS" "lockoutMs" "LOCKOUT_MS" "signInPerMinute" "SIGN_IN_PER_MINUTE" }}
{{- $v := index $c.staff $key }}
{{- if not (kindIs "invalid" $v) }}
ELIGO_GATEWAY_STAFF_{{ $env }}: {{ $v | int64 | toString | quote }}
{{- end }}
{{- end }}
{{- with $c.staff.oidc.issuer }}
ELIGO_GATEWAY_STAFF_OIDC_ISSUER: {{ . | quote }}
ELIGO_GATEWAY_STAFF_OIDC_CLIENT_ID: {{ $c.staff.oidc.clientId | quote }}
{{- with $c.staff.oidc.scopes }}
ELIGO_GATEWAY_STAFF_OIDC_SCOPES: {{ . | quote }}
{{- end }}
{{- with $c.staff.oidc.label }}
ELIGO_GATEWAY_STAFF_OIDC_LABEL: {{ . | quote }}
{{- end }}
{{- end }}
{{- if eq .Values.mode "split" }}
{{- $root := . }}
{{- range splitList " " (include "eligo.moduleNames" .) }}
{{- $m := index $root.Values.modules . }}
{{- if $m.enabled }}
ELIGO_{{ upper . }}_GRPC_ADDRESS: {{ printf "%s-%s:9090" (include "eligo.fullname" $root) . | quote }}
{{- else if $m.externalAddress }}
ELIGO_{{ upper . }}_GRPC_ADDRESS: {{ $m.externalAddress | quote }}
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
The modules each module calls over gRPC: its service's `dependsOn` (services/<name>/src/index.ts; the chart tests
compare the two). NetworkPolicy admits a module's callers, and only them, to its port 9090, and a module that an
enabled one calls must be enabled or have an externalAddress.
*/}}
{{- define "eligo.dependsOn" -}}
gateway: [programs, verification, documents, organizations, reports, notifier]
verification: [programs, organizations]
documents: [verification]
organizations: [programs]
programs: []
reports: [verification, programs]
notifier: [programs, verification]
{{- end }}

{{/* The enabled modules that call a module (mode split), space-separated. Arguments: root, name. */}}
{{- define "eligo.enabledCallers" -}}
{{- $a := . }}
{{- $deps := fromYaml (include "eligo.dependsOn" $a.root) }}
{{- $out := list }}
{{- range splitList " " (include "eligo.moduleNames" $a.root) }}
{{- if and (index $a.root.Values.modules .).enabled (has $a.name (index $deps .)) }}{{ $out = append $out . }}{{ end }}
{{- end }}
{{- join " " $out }}
{{- end }}

{{/*
Mode split: an enabled module is reached at its own Service, a disabled one that enabled modules call at its
externalAddress; fails naming the value to set otherwise (the process would refuse to start without the address).
*/}}
{{- define "eligo.checkModules" -}}
{{- if eq .Values.mode "split" }}
{{- $root := . }}
{{- range $name := splitList " " (include "eligo.moduleNames" .) }}
{{- $m := index $root.Values.modules $name }}
{{- if and $m.enabled $m.externalAddress }}
{{- fail (printf "modules.%s.externalAddress is for a disabled module: modules.%s.enabled is true (it is reached at its own Service); unset one of them" $name $name) }}
{{- end }}
{{- $callers := include "eligo.enabledCallers" (dict "root" $root "name" $name) }}
{{- if and (not $m.enabled) (not $m.externalAddress) $callers }}
{{- fail (printf "modules.%s.externalAddress is required: modules.%s is disabled but %s call it; set it to the host:port where %s serves gRPC elsewhere, or enable the module" $name $name (splitList " " $callers | join ", ") $name) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* tracing.endpoint is required when tracing is enabled. */}}
{{- define "eligo.checkTracing" -}}
{{- if and .Values.tracing.enabled (not .Values.tracing.endpoint) }}
{{- fail "tracing.endpoint is required with tracing.enabled: the OTLP collector's URL, e.g. http://otel-collector.observability:4318" }}
{{- end }}
{{- end }}

{{/*
Kafka TLS and SASL are settings of brokers (without config.kafka.brokers the in-process bus runs and would ignore
them); a CA bundle needs TLS; a SASL mechanism needs a username and a password, and neither goes without one
(the process refuses both halves alike).
*/}}
{{- define "eligo.checkKafka" -}}
{{- $k := .Values.config.kafka }}
{{- $password := include "eligo.secretGiven" (dict "root" . "name" "kafkaSaslPassword") }}
{{- if not $k.brokers }}
{{- range $name, $set := dict "config.kafka.ssl" $k.ssl "config.kafka.saslMechanism" $k.saslMechanism "config.kafka.saslUsername" $k.saslUsername "config.kafka.caSecret.name" $k.caSecret.name "secrets.kafkaSaslPassword" $password }}
{{- if $set }}
{{- fail (printf "%s needs config.kafka.brokers: TLS and SASL are settings of an external Kafka cluster (without brokers the in-process bus runs)" $name) }}
{{- end }}
{{- end }}
{{- end }}
{{- if and $k.caSecret.name (not $k.ssl) }}
{{- fail "config.kafka.caSecret needs config.kafka.ssl: true (the CA bundle checks the brokers' TLS certificates)" }}
{{- end }}
{{- if $k.saslMechanism }}
{{- if not $k.saslUsername }}
{{- fail (printf "config.kafka.saslUsername is required with config.kafka.saslMechanism (%s)" $k.saslMechanism) }}
{{- end }}
{{- if not $password }}
{{- fail (printf "secrets.kafkaSaslPassword is required with config.kafka.saslMechanism (%s): set secrets.kafkaSaslPassword.value or secrets.kafkaSaslPassword.existingSecret (see docs/operations.md, \"Kubernetes (Helm)\")" $k.saslMechanism) }}
{{- end }}
{{- else }}
{{- if $k.saslUsername }}
{{- fail "config.kafka.saslUsername needs config.kafka.saslMechanism (plain, scram-sha-256 or scram-sha-512), or unset it" }}
{{- end }}
{{- if $password }}
{{- fail "secrets.kafkaSaslPassword needs config.kafka.saslMechanism (plain, scram-sha-256 or scram-sha-512), or unset it" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Staff OIDC: an issuer needs a client id; without an issuer the other OIDC values and the client secret are
refused (the process refuses a client id or secret without an issuer; scopes and label would go unread).
*/}}
{{- define "eligo.checkStaffOidc" -}}
{{- $o := .Values.config.staff.oidc }}
{{- $secret := include "eligo.secretGiven" (dict "root" . "name" "staffOidcClientSecret") }}
{{- if $o.issuer }}
{{- if not $o.clientId }}
{{- fail "config.staff.oidc.clientId is required with config.staff.oidc.issuer: the client id of the staff console registered at your OpenID provider" }}
{{- end }}
{{- else }}
{{- range $name, $set := dict "config.staff.oidc.clientId" $o.clientId "config.staff.oidc.scopes" $o.scopes "config.staff.oidc.label" $o.label "secrets.staffOidcClientSecret" $secret }}
{{- if $set }}
{{- fail (printf "%s needs config.staff.oidc.issuer (the https URL of your OpenID provider), or unset it" $name) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* Every render-time check: the values the schema cannot tell apart. */}}
{{- define "eligo.checkValues" -}}
{{- include "eligo.checkSecrets" . }}
{{- include "eligo.checkModules" . }}
{{- include "eligo.checkTracing" . }}
{{- include "eligo.checkKafka" . }}
{{- include "eligo.checkStaffOidc" . }}
{{- end }}

{{/* The ConfigMap keys the migration Jobs leave out: Kafka's TLS and SASL (the Jobs mount none of their files). */}}
{{- define "eligo.kafkaSecurityKeys" -}}
ELIGO_KAFKA_SSL ELIGO_KAFKA_SASL_MECHANISM ELIGO_KAFKA_SASL_USERNAME
{{- end }}

{{/* Whether a component's container runs the notifier (and so reads ELIGO_SMTP_URL). */}}
{{- define "eligo.runsNotifier" -}}
{{- if has . (list "notifier" "all") }}true{{ end }}
{{- end }}

{{/* Whether a component's container runs the gateway (and so reads the staff OIDC client secret). */}}
{{- define "eligo.runsGateway" -}}
{{- if has . (list "gateway" "all") }}true{{ end }}
{{- end }}

{{/*
Spreads a Deployment's own pods over nodes and zones: the generated constraints, or topologySpreadConstraints
when non-empty (a constraint without a labelSelector gets the component's). Arguments: root, component.
*/}}
{{- define "eligo.topologySpread" -}}
{{- $v := .root.Values }}
{{- $selector := dict "matchLabels" (fromYaml (include "eligo.selectorLabels" .)) }}
{{- $out := list }}
{{- if $v.topologySpreadConstraints }}
{{- range $v.topologySpreadConstraints }}
{{- $c := deepCopy . }}
{{- if not (hasKey $c "labelSelector") }}{{ $_ := set $c "labelSelector" $selector }}{{ end }}
{{- $out = append $out $c }}
{{- end }}
{{- else if $v.topologySpread.enabled }}
{{- $keys := list "kubernetes.io/hostname" }}
{{- if $v.topologySpread.zone }}{{ $keys = append $keys "topology.kubernetes.io/zone" }}{{ end }}
{{- range $keys }}
{{- /* pod-template-hash: the pods of the old and the new ReplicaSet of a rolling update are counted apart. */}}
{{- $out = append $out (dict "maxSkew" 1 "topologyKey" . "whenUnsatisfiable" $v.topologySpread.whenUnsatisfiable "labelSelector" $selector "matchLabelKeys" (list "pod-template-hash")) }}
{{- end }}
{{- end }}
{{- with $out }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
The OTEL_* env entries of a Deployment's container when tracing is enabled, nothing otherwise (tracing is on in a
process only with OTEL_TRACES_EXPORTER set). Arguments: root, service (OTEL_SERVICE_NAME).
*/}}
{{- define "eligo.tracingEnv" -}}
{{- $t := .root.Values.tracing }}
{{- if $t.enabled }}
{{- $attributes := compact (list (printf "k8s.namespace.name=%s" .root.Release.Namespace) $t.resourceAttributes) }}
- name: OTEL_TRACES_EXPORTER
  value: otlp
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $t.endpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ $t.protocol | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $t.sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $t.samplerArg | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .service | quote }}
{{- /* The user's attributes last: a key given twice takes the later value. */}}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ join "," $attributes | quote }}
{{- end }}
{{- end }}

{{/*
The distinct existing Secrets a Deployment reads (secretKeyRef, the internal token, Kafka password and CA, staff
OIDC client secret volumes), comma-separated: what the Reloader annotation names. Arguments: root, component.
*/}}
{{- define "eligo.existingSecrets" -}}
{{- $v := .root.Values }}
{{- $names := list "databaseUrl" "encryptionKey" "adminToken" "internalToken" }}
{{- if $v.config.s3.endpoint }}{{ $names = concat $names (list "s3AccessKey" "s3SecretKey") }}{{ end }}
{{- if include "eligo.runsNotifier" .component }}{{ $names = append $names "smtpUrl" }}{{ end }}
{{- if include "eligo.runsGateway" .component }}{{ $names = append $names "staffOidcClientSecret" }}{{ end }}
{{- if $v.config.kafka.saslMechanism }}{{ $names = append $names "kafkaSaslPassword" }}{{ end }}
{{- $out := list }}
{{- range $names }}
{{- with (index $v.secrets .).existingSecret }}{{ $out = append $out . }}{{ end }}
{{- end }}
{{- with $v.config.kafka.caSecret.name }}{{ $out = append $out . }}{{ end }}
{{- $out | uniq | sortAlpha | join "," }}
{{- end }}

{{/* The account of the Deployments' pods. */}}
{{- define "eligo.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "eligo.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/*
The account of the migration Jobs: hooks run before the release's objects exist, so when the chart creates the
account the Jobs use a hook-scoped twin (migrations.yaml), as they use a hook Secret; a managed account as it is.
*/}}
{{- define "eligo.migrationsServiceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- printf "%s-migrate" (include "eligo.serviceAccountName" .) }}
{{- else }}
{{- include "eligo.serviceAccountName" . }}
{{- end }}
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
