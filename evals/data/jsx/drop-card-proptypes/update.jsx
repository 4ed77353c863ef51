// ... existing code ...
      </div>
    </li>
  );
}

function Column({ column, tasks, onMove, onDelete }) {
// ... existing code ...
