"""The 3D view of a document for every editor: ``sdformat-lsp view`` serves it on 127.0.0.1.

``http.py`` is the view server (a shell, like the language server: it reads the
file, asks ``features.frame_view`` for the frames and serves them with the page).
``page/`` is the page itself, the same one the VS Code extension bundles into its
webview (``viewer.js`` the view, ``kinematics.js`` the joint sliders' forward
kinematics, ``meshes.js`` and ``materials.js`` what Gazebo draws, ``instances.js``
repeated meshes drawn as instances, ``triads.js`` every frame's triad as instances too, ``browser.js``
and ``vscode.js`` the two hosts). ``vendor/three`` is three.js from the npm
registry (``scripts/vendor_three.py``), with its license.
"""
