package main
import ("fmt";"github.com/stateproof/stateproof/internal/generate";"github.com/stateproof/stateproof/internal/input")
func main(){ _,err:=generate.SourceModel(input.Reader{}, "x.json", []byte(`{"schemaVersion": 1, "states": [{"id": "A"}], "initial": "B"}`), false, "go", generate.Options{}); fmt.Println(err)}
