// Original file: tessera/v1/common.proto


export interface ListModelsRequest {
}

export interface ListModelsRequest__Output {
}
