"""Who is calling on the session surface: the signed-in user, their tenant and permissions. Every
feature with a session endpoint checks it, so it lives below the features."""
