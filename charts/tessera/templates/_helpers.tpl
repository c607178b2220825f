{{/*
Shared definitions. Every per-component template ranges over "tessera.components" and passes the
helpers a component context: (dict "root" $ "name" <component> "values" <its values>).
*/}}

{{- define "tessera.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release name when it already says tessera, else <release>-tessera. */}}
{{- define "tessera.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The capability services, in the order of libs/contracts' capability registry. */}}
{{- define "tessera.capabilities" -}}
chat embeddings moderation speech transcription
{{- end }}

{{/* Every component: the gateway, then the capabilities. */}}
{{- define "tessera.components" -}}
gateway {{ include "tessera.capabilities" . }}
{{- end }}

{{/* The enabled capabilities, space-separated (the gateway's upstreams). */}}
{{- define "tessera.enabledCapabilities" -}}
{{- $enabled := list }}
{{- range $name := include "tessera.capabilities" . | splitList " " }}
{{- if (index $.Values $name).enabled }}
{{- $enabled = append $enabled $name }}
{{- end }}
{{- end }}
{{- join " " $enabled }}
{{- end }}

{{/* <fullname>-<component>: the name of each of the component's objects. */}}
{{- define "tessera.componentName" -}}
{{- printf "%s-%s" (include "tessera.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "tessera.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels; .name (the component) may be empty for release-wide objects. */}}
{{- define "tessera.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tessera.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .name }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end }}

{{- define "tessera.labels" -}}
helm.sh/chart: {{ include "tessera.chart" .root }}
{{ include "tessera.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: tessera
{{- end }}

{{- define "tessera.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tessera.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Speech and transcription need ffmpeg, which only the audio image carries. */}}
{{- define "tessera.usesAudioImage" -}}
{{- if has .name (list "speech" "transcription") }}true{{ end }}
{{- end }}

{{- define "tessera.gpuEnabled" -}}
{{- if and .values.gpu .values.gpu.enabled }}true{{ end }}
{{- end }}

{{/* The execution provider of a component on GPU (webgpu or cuda); empty on CPU. */}}
{{- define "tessera.gpuProvider" -}}
{{- if include "tessera.gpuEnabled" . }}{{ default "webgpu" .values.gpu.provider }}{{ end }}
{{- end }}

{{/* registry/repository:tag of a component; the CUDA variant (tag suffix -cuda) for gpu.provider cuda. */}}
{{- define "tessera.image" -}}
{{- $image := .root.Values.image }}
{{- $repository := ternary $image.audioRepository $image.repository (eq (include "tessera.usesAudioImage" .) "true") }}
{{- $tag := default .root.Chart.AppVersion $image.tag }}
{{- if eq (include "tessera.gpuProvider" .) "cuda" }}
{{- $tag = printf "%s-cuda" $tag }}
{{- end }}
{{- if $image.registry }}
{{- printf "%s/%s:%s" $image.registry $repository $tag }}
{{- else }}
{{- printf "%s:%s" $repository $tag }}
{{- end }}
{{- end }}

{{/*
The models-file entries of one capability as JSON: `capability` added, and on GPU
execution_providers [<gpu.provider>, cpu] for every model that chose none (CPU stays the
fallback when the provider cannot start).
*/}}
{{- define "tessera.modelEntries" -}}
{{- $entries := list }}
{{- $provider := include "tessera.gpuProvider" . }}
{{- range .values.models }}
{{- $entry := merge (dict "capability" $.name) (deepCopy .) }}
{{- if $provider }}
{{- $options := deepCopy (default (dict) $entry.options) }}
{{- if not (hasKey $options "execution_providers") }}
{{- $_ := set $options "execution_providers" (list $provider "cpu") }}
{{- end }}
{{- $_ := set $entry "options" $options }}
{{- end }}
{{- $entries = append $entries $entry }}
{{- end }}
{{- toJson $entries }}
{{- end }}

{{/*
The models file of a component: a capability's own entries; the gateway's holds every enabled
capability's (it routes by id and alias). Its sha256 is the pod's checksum/config, so a change
rolls exactly the components whose file changed.
*/}}
{{- define "tessera.modelsFile" -}}
{{- $entries := list }}
{{- if eq .name "gateway" }}
{{- range $name := include "tessera.enabledCapabilities" .root | splitList " " | compact }}
{{- $ctx := dict "root" $.root "name" $name "values" (index $.root.Values $name) }}
{{- $entries = concat $entries (include "tessera.modelEntries" $ctx | fromJsonArray) }}
{{- end }}
{{- else }}
{{- $entries = include "tessera.modelEntries" . | fromJsonArray }}
{{- end }}
{{- printf "# Rendered by the tessera chart from the values of %s.\n" .name }}
{{- toYaml (dict "models" $entries) }}
{{- end }}

{{- define "tessera.modelsConfigMapName" -}}
{{- printf "%s-models" (include "tessera.componentName" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "tessera.apiKeysSecretName" -}}
{{- default (printf "%s-api-keys" (include "tessera.fullname" .)) .Values.auth.existingSecret }}
{{- end }}

{{- define "tessera.apiKeysSecretKey" -}}
{{- ternary .Values.auth.existingSecretKey "api-keys" (ne .Values.auth.existingSecret "") }}
{{- end }}

{{/* The Secret holding the gateway's TESSERA_KEY_ID_SECRET, and its key. */}}
{{- define "tessera.keyIdSecretName" -}}
{{- default (printf "%s-key-id" (include "tessera.fullname" .)) .Values.auth.keyIdSecret.existingSecret }}
{{- end }}

{{- define "tessera.keyIdSecretKey" -}}
{{- ternary .Values.auth.keyIdSecret.existingSecretKey "secret" (ne .Values.auth.keyIdSecret.existingSecret "") }}
{{- end }}

{{/*
The chart-made key-id secret (base64): the one already in the release's Secret (lookup: kept
across upgrades, so that every key keeps its id), else a new random one.
*/}}
{{- define "tessera.keyIdSecretData" -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "tessera.keyIdSecretName" .) }}
{{- if and $existing $existing.data (index $existing.data "secret") }}
{{- index $existing.data "secret" }}
{{- else }}
{{- randAlphaNum 48 | b64enc }}
{{- end }}
{{- end }}

{{/* The OTLP/HTTP endpoint: otel.endpoint, else the bundled Jaeger. */}}
{{- define "tessera.otlpEndpoint" -}}
{{- if .Values.otel.endpoint }}
{{- .Values.otel.endpoint }}
{{- else if .Values.jaeger.enabled }}
{{- printf "http://%s-jaeger:4318" (include "tessera.fullname" .) }}
{{- else }}
{{- fail "otel.enabled needs otel.endpoint, or jaeger.enabled for the bundled development Jaeger" }}
{{- end }}
{{- end }}

{{/* OTEL_* env of a component's process, only when tracing is on. */}}
{{- define "tessera.otelEnv" -}}
{{- if .root.Values.otel.enabled }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ include "tessera.otlpEndpoint" .root | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "tessera-%s" .name | quote }}
{{- end }}
{{- end }}

{{/* Tolerations: the component's, plus the GPU taint's when it runs on GPU. */}}
{{- define "tessera.tolerations" -}}
{{- $tolerations := default (list) .values.tolerations }}
{{- if include "tessera.gpuEnabled" . }}
{{- $tolerations = append $tolerations (dict "key" "nvidia.com/gpu" "operator" "Exists" "effect" "NoSchedule") }}
{{- end }}
{{- with $tolerations }}
{{- toYaml . }}
{{- end }}
{{- end }}

{{/* Resources: the component's, plus nvidia.com/gpu limits (requests default to them). */}}
{{- define "tessera.resources" -}}
{{- $resources := deepCopy (default (dict) .values.resources) }}
{{- if include "tessera.gpuEnabled" . }}
{{- $limits := default (dict) $resources.limits }}
{{- $_ := set $limits "nvidia.com/gpu" (int .values.gpu.count) }}
{{- $_ := set $resources "limits" $limits }}
{{- end }}
{{- toYaml $resources }}
{{- end }}

{{/*
The chart-made Secret's data (base64): with auth.keys, the YAML keys file of auth.keys and
auth.apiKeys (each raw key without an id: the gateway names it, as a raw key, by an HMAC under
TESSERA_KEY_ID_SECRET); else auth.apiKeys one per
line; with none, the key already in
the release's Secret (lookup: kept across upgrades), else a new random one. Memoized in the
render, since the Secret and the gateway's checksum both include it.
*/}}
{{- define "tessera.apiKeysSecretData" -}}
{{- if not (hasKey .Values.auth "__rendered") }}
{{- $data := "" }}
{{- if .Values.auth.keys }}
{{- $entries := list }}
{{- range .Values.auth.apiKeys }}
{{- $entries = append $entries (dict "key" .) }}
{{- end }}
{{- $data = dict "keys" (concat $entries .Values.auth.keys) | toYaml | b64enc }}
{{- else if .Values.auth.apiKeys }}
{{- $data = join "\n" .Values.auth.apiKeys | b64enc }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "tessera.apiKeysSecretName" .) }}
{{- if and $existing $existing.data (index $existing.data "api-keys") }}
{{- $data = index $existing.data "api-keys" }}
{{- else }}
{{- $data = printf "sk-tessera-%s" (randAlphaNum 40) | b64enc }}
{{- end }}
{{- end }}
{{- $_ := set .Values.auth "__rendered" $data }}
{{- end }}
{{- index .Values.auth "__rendered" }}
{{- end }}

{{/* The Secret holding the rate limits' Redis URL; empty when none is configured. */}}
{{- define "tessera.redisSecretName" -}}
{{- if .Values.rateLimit.redis.existingSecret }}
{{- .Values.rateLimit.redis.existingSecret }}
{{- else if .Values.rateLimit.redis.url }}
{{- printf "%s-redis" (include "tessera.fullname" .) }}
{{- end }}
{{- end }}
