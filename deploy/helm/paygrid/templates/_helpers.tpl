{{- define "paygrid.labels" -}}
app.kubernetes.io/name: paygrid
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "paygrid.selector" -}}
app.kubernetes.io/name: paygrid
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "paygrid.upstreamUrl" -}}
http://{{ .root.Release.Name }}-{{ .name }}:{{ (index .root.Values.apps .name).port }}
{{- end -}}
