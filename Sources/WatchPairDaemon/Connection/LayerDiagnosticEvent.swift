import WatchConnection

/// The reliability layer's event type, named apart from WatchPairCore's `DiagnosticEvent` (this file
/// imports only the layer, so the name is unambiguous here).
typealias LayerDiagnosticEvent = DiagnosticEvent
