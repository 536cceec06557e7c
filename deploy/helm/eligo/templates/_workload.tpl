{{/*
One Deployment and its Service. Arguments: root, component (a module name or "all"), target (of --target),
replicas, autoscaled (an HPA owns the replica count), resources, http (probe over HTTP /healthz and /readyz, else native gRPC health on 9090), grpcPort
(the Service exposes 9090 to the other modules).
*/}}
{{- define "eligo.workload" -}}
{{- $root := .root }}
{{- $name := printf "%s-%s" (include "eligo.fullname" $root) .component }}
{{- $token := include "eligo.secretGiven" (dict "root" $root "name" "internalToken") }}
{{- $kafka := $root.Values.config.kafka }}
{{- $smtp := and (include "eligo.runsNotifier" .component) (include "eligo.secretGiven" (dict "root" $root "name" "smtpUrl")) }}
{{- $oidcSecret := and (include "eligo.runsGateway" .component) (include "eligo.secretGiven" (dict "root" $root "name" "staffOidcClientSecret")) }}
{{- $inline := include "eligo.fullname" $root }}
{{- $reload := include "eligo.existingSecrets" . }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "eligo.labels" . | nindent 4 }}
  {{- if and $root.Values.secrets.reloadAnnotation $reload }}
  annotations:
    # The checksums below cannot see Secrets the chart does not render: Reloader rolls the pods when these change.
    secret.reloader.stakater.com/reload: {{ $reload | quote }}
  {{- end }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ .replicas }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "eligo.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "eligo.labels" . | nindent 8 }}
      annotations:
        # A changed setting or inline secret rolls the pods (the tracing env is in the spec itself).
        checksum/config: {{ include "eligo.configData" $root | sha256sum }}
        checksum/secret: {{ include "eligo.secretData" $root | sha256sum }}
        {{- with $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "eligo.serviceAccountName" $root }}
      # Eligo never calls the Kubernetes API.
      automountServiceAccountToken: false
      securityContext:
        {{- include "eligo.podSecurityContext" $root | nindent 8 }}
      # Above the drain window plus the grace of in-flight requests: SIGTERM is never cut short by SIGKILL.
      terminationGracePeriodSeconds: {{ add (div (add $root.Values.shutdown.delayMs $root.Values.shutdown.graceMs) 1000) 5 }}
      {{- with include "eligo.scheduling" $root | trim }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- with include "eligo.topologySpread" . | trim }}
      {{- . | nindent 6 }}
      {{- end }}
      containers:
        - name: eligo
          image: {{ include "eligo.image" $root }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          args: [start, --target, {{ .target }}]
          ports:
            - name: http
              containerPort: 8080
            - name: grpc
              containerPort: 9090
          envFrom:
            - configMapRef:
                name: {{ include "eligo.fullname" $root }}-config
          env:
            {{- include "eligo.secretEnvs" (dict "root" $root "inline" (include "eligo.fullname" $root)) | trim | nindent 12 }}
            {{- if $token }}
            - name: ELIGO_INTERNAL_TOKEN_FILE
              value: /etc/eligo/internal-token/token
            {{- end }}
            {{- if $smtp }}
            {{- include "eligo.secretEnv" (dict "root" $root "name" "smtpUrl" "env" "ELIGO_SMTP_URL" "inline" $inline) | nindent 12 }}
            {{- end }}
            {{- if $kafka.saslMechanism }}
            - name: ELIGO_KAFKA_SASL_PASSWORD_FILE
              value: /etc/eligo/kafka-sasl/password
            {{- end }}
            {{- if $kafka.caSecret.name }}
            - name: ELIGO_KAFKA_SSL_CA_FILE
              value: /etc/eligo/kafka-ca/ca.crt
            {{- end }}
            {{- if $oidcSecret }}
            - name: ELIGO_GATEWAY_STAFF_OIDC_CLIENT_SECRET_FILE
              value: /etc/eligo/staff-oidc/client-secret
            {{- end }}
            {{- with include "eligo.tracingEnv" (dict "root" $root "service" (ternary "eligo" (printf "eligo-%s" .component) (eq .component "all"))) | trim }}
            {{- . | nindent 12 }}
            {{- end }}
          {{- if .http }}
          startupProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 2
            failureThreshold: 150
          livenessProbe:
            httpGet: { path: /healthz, port: http }
            periodSeconds: 10
            failureThreshold: 3
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            periodSeconds: 5
            failureThreshold: 2
          {{- else }}
          startupProbe:
            grpc: { port: 9090 }
            periodSeconds: 2
            failureThreshold: 150
          livenessProbe:
            grpc: { port: 9090 }
            periodSeconds: 10
            failureThreshold: 3
          readinessProbe:
            grpc: { port: 9090 }
            periodSeconds: 5
            failureThreshold: 2
          {{- end }}
          resources:
            {{- toYaml .resources | nindent 12 }}
          securityContext:
            {{- include "eligo.containerSecurityContext" $root | nindent 12 }}
          volumeMounts:
            {{- include "eligo.scratchMounts" $root | nindent 12 }}
            {{- if $token }}
            - name: internal-token
              mountPath: /etc/eligo/internal-token
              readOnly: true
            {{- end }}
            {{- if $kafka.saslMechanism }}
            - name: kafka-sasl
              mountPath: /etc/eligo/kafka-sasl
              readOnly: true
            {{- end }}
            {{- if $kafka.caSecret.name }}
            - name: kafka-ca
              mountPath: /etc/eligo/kafka-ca
              readOnly: true
            {{- end }}
            {{- if $oidcSecret }}
            - name: staff-oidc
              mountPath: /etc/eligo/staff-oidc
              readOnly: true
            {{- end }}
      volumes:
        {{- include "eligo.scratchVolumes" $root | nindent 8 }}
        {{- if $token }}
        - name: internal-token
          secret:
            secretName: {{ $root.Values.secrets.internalToken.existingSecret | default (include "eligo.fullname" $root) }}
            items:
              - key: {{ $root.Values.secrets.internalToken.key }}
                path: token
        {{- end }}
        {{- if $kafka.saslMechanism }}
        - name: kafka-sasl
          secret:
            secretName: {{ $root.Values.secrets.kafkaSaslPassword.existingSecret | default $inline }}
            items:
              - key: {{ $root.Values.secrets.kafkaSaslPassword.key }}
                path: password
        {{- end }}
        {{- if $kafka.caSecret.name }}
        - name: kafka-ca
          secret:
            secretName: {{ $kafka.caSecret.name }}
            items:
              - key: {{ $kafka.caSecret.key }}
                path: ca.crt
        {{- end }}
        {{- if $oidcSecret }}
        - name: staff-oidc
          secret:
            secretName: {{ $root.Values.secrets.staffOidcClientSecret.existingSecret | default $inline }}
            items:
              - key: {{ $root.Values.secrets.staffOidcClientSecret.key }}
                path: client-secret
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
    {{- include "eligo.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "eligo.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: 8080
      targetPort: http
    {{- if .grpcPort }}
    - name: grpc
      port: 9090
      targetPort: grpc
      appProtocol: grpc
    {{- end }}
{{- end }}
