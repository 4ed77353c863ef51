/* ... existing code ... */
	try {
	  this.storage.setItem(STORAGE_KEY, JSON.stringify(this.state));
	} catch (err) {
	  // Quota exceeded or private mode: the cart still works, it just won't survive a reload.
	  if (process.env.NODE_ENV !== 'production') {
		console.warn('cart: could not persist state', err);
	  }
	}
/* ... existing code ... */
