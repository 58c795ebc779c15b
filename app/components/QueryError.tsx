export default function QueryError({ message }: { message: string }) {
  return (
    <div className="notice error" role="alert">
      <strong>That view cannot be shown:</strong> {message}
    </div>
  );
}
