// docs/WatchConnection.md, "Start": the block quoted there, compiled with the tests (DocPagesTests checks that
// the page quotes this file). It is not run: it builds its connection over `WCSession.default`, the app's
// session; `TestLink` runs the same initializer over a `WCSessionPair`'s session.
import WatchConnection
import WatchConnectionWCSession
import WatchConnectivity

struct FetchRecipe: WatchRequest {          // both apps share this type
    typealias Response = Recipe
    let id: String
}

struct Recipe: Codable, Sendable {
    let id: String
    let title: String
}

@MainActor
final class RecipeSync {
    /// One per app, created at launch.
    let connection = WatchConnection(session: WCSession.default)

    /// The app that answers.
    func answer(from store: RecipeStore) {
        connection.register(FetchRecipe.self) { request in try await store.recipe(request.id) }
    }

    /// The app that asks.
    func recipe(_ id: String) async throws -> Recipe {
        try await connection.send(FetchRecipe(id: id))
    }
}

/// The answering app's recipes, as the snippet's `store`.
actor RecipeStore {
    func recipe(_ id: String) throws -> Recipe {
        Recipe(id: id, title: "Soup")
    }
}
